import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { UNIQUE_CONSTRAINTS } from './unique-constraints';

const tables = (Object.values(schema) as unknown[]).filter(
  (value): value is PgTable =>
    typeof value === 'object' && value !== null && Symbol.for('drizzle:IsDrizzleTable') in value,
);

describe('UNIQUE_CONSTRAINTS', () => {
  it('names every unique constraint and unique index of the schema, and nothing else', () => {
    const names: string[] = [];
    for (const table of tables) {
      const config = getTableConfig(table);
      for (const index of config.indexes)
        if (index.config.unique && index.config.name) names.push(index.config.name);
      for (const unique of config.uniqueConstraints) names.push(unique.getName() ?? '');
      for (const column of config.columns)
        if (column.isUnique && column.uniqueName) names.push(column.uniqueName);
    }
    expect(tables.length).toBeGreaterThan(10);
    expect([...new Set(names)].sort()).toEqual(Object.keys(UNIQUE_CONSTRAINTS).sort());
  });
});
