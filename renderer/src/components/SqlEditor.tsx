// The SQL tab's editor: CodeMirror 6 with SQL highlighting (DuckDB's dialect is close to PostgreSQL's) and completion
// of the opened tables and their columns; Ctrl+Enter (Cmd+Enter) runs.
// CodeMirror writes its styles at run time. Into a document it adds <style> elements, which the renderer's CSP
// (style-src 'self') forbids; into a shadow root it adopts constructed style sheets, which CSP does not govern. So
// the editor lives in a shadow root of its own.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { PostgreSQL, sql, type SQLNamespace } from '@codemirror/lang-sql';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';

interface Props {
  label: string;
  value: string;
  /** The tables the query may name, with their columns, for completion. */
  tables: Record<string, string[]>;
  onChange(value: string): void;
  onRun(): void;
}

// The window's palette (styles.css), which the shadow root inherits, so the editor follows the light and dark themes.
const look = EditorView.theme({
  '&': {
    minHeight: '7rem',
    maxHeight: '18rem',
    color: 'var(--text)',
    background: 'var(--surface)',
    border: '1px solid var(--border-strong)',
    borderRadius: 'var(--radius)',
  },
  '&.cm-focused': { outline: '2px solid var(--accent)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', fontSize: '13px' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-placeholder': { color: 'var(--muted)' },
  '.cm-tooltip': { background: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border-strong)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { background: 'var(--accent-soft)', color: 'var(--text)' },
});

const highlighting = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--accent-strong)', fontWeight: '600' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--ok)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--warn)' },
  { tag: tags.comment, color: 'var(--muted)', fontStyle: 'italic' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

function language(tables: Record<string, string[]>) {
  const schema: SQLNamespace = tables;
  return sql({ dialect: PostgreSQL, schema, defaultTable: 't', upperCaseKeywords: true });
}

export function SqlEditor({ label, value, tables, onChange, onRun }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageSlot = useRef(new Compartment());
  // The editor is made once; these keep its callbacks current without remaking it.
  const callbacks = useRef({ onChange, onRun });
  useLayoutEffect(() => {
    callbacks.current = { onChange, onRun };
  });

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
    const editor = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: value,
        extensions: [
          keymap.of([
            { key: 'Mod-Enter', run: () => (callbacks.current.onRun(), true) },
            ...closeBracketsKeymap,
            ...completionKeymap,
            ...historyKeymap,
            ...defaultKeymap,
          ]),
          history(),
          closeBrackets(),
          autocompletion(),
          syntaxHighlighting(highlighting),
          languageSlot.current.of(language(tables)),
          placeholder('SELECT * FROM t LIMIT 10'),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          look,
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // Made once per mount; value and tables reach it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A layout effect, so the text is compared in the same task that rendered it: a passive effect may run after the
  // user typed on, and would then put back a value the editor has already moved past (losing a keystroke).
  useLayoutEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: languageSlot.current.reconfigure(language(tables)) });
  }, [tables]);

  return <div ref={host} className="sql-editor" />;
}
