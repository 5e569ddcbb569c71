// Log replay (PROTOCOL.md "Action Reconciliation"): the newest protocol and metaData win, and a data file is live
// when its newest add/remove action, keyed by (path, deletion vector id), is an add.
import type { Action, AddFile, DeletionVectorDescriptor, Metadata, Protocol } from './actions.js';
import type { CheckpointState } from './checkpoint-reader.js';
import { corruptLog } from './errors.js';
import type { LiveFile } from './snapshot.js';
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
  const live = new Map<string, LiveFile>();
  const resolve = dataPathResolver(tableRoot);
  const addLive = (add: AddFile): void => {
    const absolutePath = resolve(add.path);
    live.set(fileKey(absolutePath, add.deletionVector), { add, absolutePath });
  };
  checkpoint?.adds.forEach(addLive);
  for (const actions of commits) {
    for (const action of actions) {
      if (action.add) addLive(action.add);
      else if (action.remove) live.delete(fileKey(resolve(action.remove.path), action.remove.deletionVector));
      else if (action.protocol) protocol = action.protocol;
      else if (action.metaData) metadata = action.metaData;
    }
  }
  if (!protocol) throw corruptLog(`cannot read version ${version}: its log has no protocol action`);
  if (!metadata) throw corruptLog(`cannot read version ${version}: its log has no metaData action`);
  const files = [...live.values()].sort((a, b) => (a.absolutePath < b.absolutePath ? -1 : a.absolutePath > b.absolutePath ? 1 : 0));
  return { protocol, metadata, files };
}

/** PROTOCOL.md: a deletion vector's unique id is storageType + pathOrInlineDv (+ "@" + offset when present). */
function fileKey(absolutePath: string, dv: DeletionVectorDescriptor | null | undefined): string {
  if (!dv) return absolutePath;
  const offset = dv.offset === null || dv.offset === undefined ? '' : `@${dv.offset}`;
  return `${absolutePath}\0${dv.storageType}${dv.pathOrInlineDv}${offset}`;
}
