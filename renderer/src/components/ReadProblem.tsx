// Why a read shows no answer: a read the user cancelled is said as the outcome they asked for, in the muted words of a
// status line; any other failure is an error, shown as an alert.
import { CANCELLED_READ } from '../latest-request.js';
import { Alert } from './Alert.js';
import { Notice } from './Notice.js';

export function ReadProblem({ message, id }: { message: string | null; id?: string }) {
  if (message === CANCELLED_READ) return <Notice text={message} className="muted small" />;
  return <Alert message={message} id={id} />;
}
