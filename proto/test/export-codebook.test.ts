import {
  DATA_EXPORT_TABLES,
  EXPORT_TABLES,
  EXPORT_TABLE_NAMES,
  EXPORT_VALUE_TYPES,
  IDENTIFYING_EXPORT_TABLE,
} from '../src/export-codebook';
import { fileNameSlug, sessionExportFileName } from '../src/export-file-names';

describe("the exports' codebook", () => {
  it.each(EXPORT_TABLE_NAMES)('%s: snake_case columns, each once, session_id first, a known type', (name) => {
    const { row, columns } = EXPORT_TABLES[name];
    expect(row.length).toBeGreaterThan(0);
    const names = columns.map((c) => c.name);
    expect(names[0]).toBe('session_id');
    expect(new Set(names).size).toBe(names.length);
    for (const column of columns) {
      expect(column.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(EXPORT_VALUE_TYPES).toContain(column.type);
      expect(column.meaning.length).toBeGreaterThan(0);
      // The time convention: instants end in _at, milliseconds in _ms.
      if (column.type === 'timestamp') expect(column.name).toMatch(/_at$/);
      if (column.name.endsWith('_ms')) expect(column.type).toBe('integer');
    }
  });

  it('keeps e-mails, names and account ids in the identifying table only', () => {
    expect(DATA_EXPORT_TABLES).not.toContain(IDENTIFYING_EXPORT_TABLE);
    for (const name of DATA_EXPORT_TABLES) {
      const names = EXPORT_TABLES[name].columns.map((c) => c.name as string);
      for (const identifying of ['email', 'user_id', 'name'])
        if (name !== 'actions') expect([name, names.includes(identifying)]).toEqual([name, false]);
    }
  });
});

describe('download names', () => {
  it.each([
    ['Pilot: Café study #2', 'pilot-cafe-study-2'],
    ['  --Ünïcödé__ ', 'unicode'],
    ['Smørrebrød', 'sm-rrebr-d'],
    ['日本語', 'session'],
    ['', 'session'],
    ['a'.repeat(59) + ' b', 'a'.repeat(59)],
  ])('%j is %j', (title, slug) => {
    expect(fileNameSlug(title)).toBe(slug);
  });

  it('names a table of a session after both', () => {
    expect(sessionExportFileName('New session 2', 'messages')).toBe('new-session-2-messages.csv');
  });
});
