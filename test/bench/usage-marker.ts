/** The line report-max-rss.ts writes to a child's stderr at exit, followed by the peak RSS in KiB. */
export const MAX_RSS_MARKER = '__deltaport_bench_max_rss_kb=';
