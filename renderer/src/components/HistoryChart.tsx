// A small bar chart of what each commit wrote (up) and removed (down), read from the commits' operationMetrics.
import type { CommitSummary } from '../../../shared/table-info.js';
import { commitFigures } from '../commit-figures.js';
import type { ChartMetric } from '../commit-figures.js';
import { formatCount, humanBytes } from '../format.js';

interface Props {
  commits: CommitSummary[];
  metric: ChartMetric;
  currentVersion: number;
  onPick(version: number): void;
}

const PLOT_H = 84;
const LABEL_H = 14;
const BAR = 24;
const GAP = 10;
// Beyond this many commits the version labels would overlap; the bars' tooltips still name them.
const MAX_LABELLED = 40;

export function HistoryChart({ commits, metric, currentVersion, onPick }: Props) {
  const ordered = [...commits].sort((a, b) => a.version - b.version);
  const figures = ordered.map((c) => commitFigures(c, metric));
  if (figures.every((f) => f.added === null && f.removed === null)) {
    return <p className="muted small chart-empty">These commits record no {metric === 'rows' ? 'row' : 'byte'} metrics.</p>;
  }
  const max = Math.max(1, ...figures.map((f) => Math.max(f.added ?? 0, f.removed ?? 0)));
  const anyRemoved = figures.some((f) => (f.removed ?? 0) > 0);
  const labelled = ordered.length <= MAX_LABELLED;
  const HEIGHT = PLOT_H + (labelled ? LABEL_H : 0);
  const baseline = anyRemoved ? PLOT_H * 0.7 : PLOT_H - 1;
  const upSpace = baseline - 2;
  const downSpace = PLOT_H - baseline - 2;
  const width = ordered.length * (BAR + GAP);
  const show = (n: number) => (metric === 'rows' ? formatCount(n) : humanBytes(n));
  return (
    <svg
      className="history-chart"
      viewBox={`0 0 ${width} ${HEIGHT}`}
      height={HEIGHT}
      style={{ maxWidth: `${Math.max(width * 2, 360)}px` }}
      preserveAspectRatio="none"
      role="img"
      aria-label={`${metric === 'rows' ? 'Rows' : 'Bytes'} written and removed per commit`}
    >
      <line x1={0} x2={width} y1={baseline} y2={baseline} className="chart-axis" />
      {ordered.map((commit, i) => {
        const { added, removed } = figures[i];
        const up = ((added ?? 0) / max) * upSpace;
        const down = ((removed ?? 0) / max) * downSpace;
        const x = i * (BAR + GAP) + GAP / 2;
        const current = commit.version === currentVersion;
        return (
          <g key={commit.version} className={current ? 'chart-bar current' : 'chart-bar'} onClick={() => onPick(commit.version)}>
            <title>{`v${commit.version} ${commit.operation ?? ''}: +${show(added ?? 0)}` + (removed ? ` −${show(removed)}` : '')}</title>
            <rect x={x - GAP / 2} y={0} width={BAR + GAP} height={HEIGHT} className="chart-hit" />
            <rect x={x} y={baseline - Math.max(up, added ? 1 : 0)} width={BAR} height={Math.max(up, added ? 1 : 0)} className="chart-up" />
            {down > 0 && <rect x={x} y={baseline} width={BAR} height={down} className="chart-down" />}
            {labelled && (
              <text x={x + BAR / 2} y={HEIGHT - 3} textAnchor="middle" className="chart-label">
                v{commit.version}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
