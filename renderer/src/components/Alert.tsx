// An error shown where it happened, announced to screen readers.
export function Alert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="alert">
      <span className="alert-icon" aria-hidden="true">!</span>
      {message}
    </p>
  );
}
