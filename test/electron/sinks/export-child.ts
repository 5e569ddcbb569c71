// A whole export in its own process, so a test can kill it with SIGKILL mid-way. The request comes as JSON in
// DELTAPORT_CHILD_EXPORT; each step prints "rows N committed M": the rows read and the rows committed so far.
import { exportRequest, type ExportRequest } from '../../support/export-request.js';

const request = JSON.parse(process.env.DELTAPORT_CHILD_EXPORT ?? '{}') as ExportRequest;
await exportRequest({
  ...request,
  onProgress: (p) => {
    process.stdout.write(`rows ${p.rows} committed ${p.committedRows ?? 0}\n`);
  },
});
process.stdout.write('done\n');
