// Log replay (PROTOCOL.md "Action Reconciliation"): the newest protocol and metaData win, and a data file is live
// when its newest add/remove action, keyed by (path, deletion vector id), is an add.
import type { Action, DeletionVectorDescriptor, Metadata, Protocol } from './actions.js';
import type { CheckpointState } from './checkpoint-reader.js';
import { corruptLog } from '../errors.js';
import type { LiveFile } from '../snapshot.js';
import { dataPathResolver } from './log-paths.js';

export interface ReplayResult {
  protocol: Protocol;
  metadata: Metadata;
  /** Sorted by absolutePath. */
  files: LiveFile[];
}

/** Replays a checkpoint's state and then the commits after it, oldest first, actions in file order. */
export function replay(tableRoot: string, version: number, checkpoint: CheckpointState | null, commits: Action[][]): ReplayResult {
  let protocol = checkpoint?.protocol ?? null;
  let metadata = checkpoint?.metadata ?? null;
  const resolve = dataPathResolver(tableRoot);
  // What the commits did to each file, the newest action winning: the live file, or null once removed. Kept apart
  // from the checkpoint's files, often all of a long log's, so that those are not each put into a map as well.
  const changed = new Map<string, LiveFile | null>();
  for (const actions of commits) {
    for (const action of actions) {
      if (action.add) {
        const absolutePath = resolve(action.add.path);
        changed.set(fileKey(absolutePath, action.add.deletionVector), { add: action.add, absolutePath });
      } else if (action.remove) {
        changed.set(fileKey(resolve(action.remove.path), action.remove.deletionVector), null);
      } else if (action.protocol) protocol = action.protocol;
      else if (action.metaData) metadata = action.metaData;
    }
  }
  if (!protocol) throw corruptLog(`cannot read version ${version}: its log has no protocol action`);
  if (!metadata) throw corruptLog(`cannot read version ${version}: its log has no metaData action`);
  const files: LiveFile[] = [];
  for (const add of checkpoint?.adds ?? []) {
    const absolutePath = resolve(add.path);
    if (changed.size === 0 || !changed.has(fileKey(absolutePath, add.deletionVector))) files.push({ add, absolutePath });
  }
  for (const file of changed.values()) if (file) files.push(file);
  files.sort((a, b) => (a.absolutePath < b.absolutePath ? -1 : a.absolutePath > b.absolutePath ? 1 : 0));
  return { protocol, metadata, files: withoutRepeats(files) };
}

/** A checkpoint names each file once; one that names a file twice counts its last entry, as a replay of actions
 * would. `files` is sorted (stably), so the entries of one file are neighbours, in the checkpoint's order. */
function withoutRepeats(files: LiveFile[]): LiveFile[] {
  let repeats = false;
  for (let i = 1; i < files.length && !repeats; i++) repeats = files[i].absolutePath === files[i - 1].absolutePath;
  if (!repeats) return files;
  const out: LiveFile[] = [];
  const at = new Map<string, number>();
  for (const file of files) {
    const key = fileKey(file.absolutePath, file.add.deletionVector);
    const seen = at.get(key);
    if (seen === undefined) at.set(key, out.push(file) - 1);
    else out[seen] = file;
  }
  return out;
}

/** PROTOCOL.md: a deletion vector's unique id is storageType + pathOrInlineDv (+ "@" + offset when present). */
function fileKey(absolutePath: string, dv: DeletionVectorDescriptor | null | undefined): string {
  if (!dv) return absolutePath;
  const offset = dv.offset === null || dv.offset === undefined ? '' : `@${dv.offset}`;
  return `${absolutePath}\0${dv.storageType}${dv.pathOrInlineDv}${offset}`;
}
