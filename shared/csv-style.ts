// How a CSV export is written: delimiter, quote, header row, the text of a null and the line ending. The defaults
// are RFC 4180's and the app's output before these options existed, so leaving them out changes nothing.

export const LINE_ENDINGS = ['lf', 'crlf'] as const;
export type LineEnding = (typeof LINE_ENDINGS)[number];

export interface CsvStyle {
  delimiter: string;
  quote: string;
  header: boolean;
  nullText: string;
  lineEnding: LineEnding;
}

export const DEFAULT_CSV_STYLE: CsvStyle = { delimiter: ',', quote: '"', header: true, nullText: '', lineEnding: 'lf' };

export type CsvStyleField = 'delimiter' | 'quote' | 'nullText';

export interface CsvStyleProblem {
  field: CsvStyleField;
  message: string;
}

const LINE_BREAK = /[\r\n]/;

/** What a reader could not take back unambiguously: each problem tied to the option that causes it. */
export function csvStyleProblems(style: Pick<CsvStyle, 'delimiter' | 'quote' | 'nullText'>): CsvStyleProblem[] {
  const { delimiter, quote, nullText } = style;
  const problems: CsvStyleProblem[] = [];
  const oneCharacter = (field: CsvStyleField, what: string, value: string) => {
    if ([...value].length !== 1) problems.push({ field, message: `the CSV ${what} must be exactly one character` });
    else if (LINE_BREAK.test(value)) problems.push({ field, message: `the CSV ${what} cannot be a line break` });
  };
  oneCharacter('delimiter', 'delimiter', delimiter);
  oneCharacter('quote', 'quote', quote);
  if (delimiter === quote) problems.push({ field: 'quote', message: 'the CSV quote must differ from the delimiter' });
  // A null text with these in it would be quoted or split like data, and read back as something else.
  if (delimiter !== '' && nullText.includes(delimiter))
    problems.push({ field: 'nullText', message: 'the CSV null text cannot contain the delimiter' });
  if (quote !== '' && nullText.includes(quote)) problems.push({ field: 'nullText', message: 'the CSV null text cannot contain the quote' });
  if (LINE_BREAK.test(nullText)) problems.push({ field: 'nullText', message: 'the CSV null text cannot contain a line break' });
  return problems;
}

/** The full style of a CSV sink spec: its own options, and the defaults for those it leaves out. */
export function csvStyleOf(options: Partial<CsvStyle>): CsvStyle {
  const given = Object.entries(options).filter(([key, value]) => key in DEFAULT_CSV_STYLE && value !== undefined);
  return { ...DEFAULT_CSV_STYLE, ...Object.fromEntries(given) };
}

export function isDefaultCsvStyle(style: CsvStyle): boolean {
  return Object.entries(DEFAULT_CSV_STYLE).every(([key, value]) => style[key as keyof CsvStyle] === value);
}
