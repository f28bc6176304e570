/**
 * The Company of each access key in a column of its own. Every MCP call reads its key with the
 * key's user and Company in one statement (accounts/tenancy.ts), and the Company was joined on a
 * regular expression over the key's whole doc text: 27.6 µs of the database's time per lookup
 * against 22.1 µs on this column (pg_stat_statements; docs/performance.md). The column is filled here from the same expression, which finds
 * the top-level field whatever else the doc holds (a `\u0000` in a key's name included, which the
 * json operators refuse), and by every write from now on. A row written without it (a daemon of
 * the previous version during a rolling upgrade) still answers: the lookup reads its Company apart.
 */
export const keyCompanySchema = `
ALTER TABLE svc_secret_keys ADD COLUMN company_id text;
UPDATE svc_secret_keys SET company_id = substring(doc::text from '"company_id":"([^"\\\\]*)"');
`;
