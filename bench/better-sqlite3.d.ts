// The parts of better-sqlite3's API the event-log benchmark uses (no @types package is installed; it is a dev-only baseline).
declare module 'better-sqlite3' {
  namespace Database {
    interface Statement {
      run(...params: unknown[]): { changes: number };
      all(...params: unknown[]): any[];
    }
    interface Database {
      exec(sql: string): Database;
      prepare(sql: string): Statement;
      pragma(sql: string): unknown;
      transaction<T extends (...args: any[]) => unknown>(fn: T): T;
      close(): void;
    }
  }
  const Database: new (path: string) => Database.Database;
  export default Database;
}
