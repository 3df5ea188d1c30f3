// Moved to src/lib/credentials.ts (shared with the console); kept here so existing imports work.
export * from '../../lib/credentials';
