import type { ServerSpec } from '../spec.ts';
import { databaseServer } from './database.ts';
import { filesystemServer } from './filesystem.ts';
import { githubServer } from './github.ts';
import { jiraServer } from './jira.ts';
import { slackServer } from './slack.ts';
import { webServer } from './web.ts';

/** The six servers of the synthetic catalog, in the order of the published table. */
// (imported by its explicit path servers/index.ts, which ts-unused-exports does not resolve)
// ts-unused-exports:disable-next-line
export const SERVER_SPECS: ServerSpec[] = [githubServer, filesystemServer, databaseServer, slackServer, webServer, jiraServer];
