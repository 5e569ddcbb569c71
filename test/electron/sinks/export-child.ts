// A whole export in its own process, so a test can kill it with SIGKILL mid-way. The request comes as JSON in
// DELTAPORT_CHILD_EXPORT; each committed step prints "rows N".
import { runExport, type ExportRequest } from '../../../electron/export/run-export.js';

const request = JSON.parse(process.env.DELTAPORT_CHILD_EXPORT ?? '{}') as ExportRequest;
await runExport({
  ...request,
  onProgress: (p) => {
    process.stdout.write(`rows ${p.rows}\n`);
  },
});
process.stdout.write('done\n');
