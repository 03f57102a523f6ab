/** Where the server tests find PostgreSQL: an administrator URL that may create databases. */
export const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
