// A folder dropped on the window: the desktop app asks Electron where the dropped item lives; browsers reveal its
// location only as a file:// URI or dragged path text, never through the File object, so those are what we read.
export type DropOutcome = { path: string } | { problem: string } | null;

function pathOfFileUri(uri: string): string {
  const path = decodeURIComponent(new URL(uri).pathname);
  // file:///C:/data -> C:/data
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}

/** What is read of a drop's DataTransfer (kept structural so the rule is testable outside a browser). */
export interface DropData<F> {
  getData(format: string): string;
  readonly files: ArrayLike<F>;
}

export function droppedLocation<F>(data: DropData<F>, pathForFile?: (file: F) => string): DropOutcome {
  const file = data.files[0];
  const desktopPath = file && pathForFile ? pathForFile(file) : '';
  if (desktopPath) return { path: desktopPath };
  const uri = data
    .getData('text/uri-list')
    .split(/\r?\n/)
    .find((line) => line.startsWith('file://'));
  if (uri) return { path: pathOfFileUri(uri) };
  const text = data.getData('text/plain').trim();
  if (/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(text)) return { path: text };
  if (text.startsWith('file://')) return { path: pathOfFileUri(text) };
  if (data.files.length > 0) {
    return { problem: 'This window cannot see where the dropped folder lives; paste its path into the location field instead.' };
  }
  return null;
}
