/** Where the server tests find PostgreSQL: an administrator URL that may create databases. */
export const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** What a child process of the tests inherits: enough to find its tools, nothing else. */
export const inheritedEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

/** Whether the browser tests refresh the screenshots under docs/ (otherwise they save to a temp folder). */
export const updateScreenshots = process.env.MMW_UPDATE_SCREENSHOTS === '1';
