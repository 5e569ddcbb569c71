// A status line after an action ("Saved …"), announced to screen readers; nothing while there is none.
export function Notice({ text, className = 'note' }: { text: string | null; className?: string }) {
  if (!text) return null;
  return (
    <p className={className} role="status">
      {text}
    </p>
  );
}
