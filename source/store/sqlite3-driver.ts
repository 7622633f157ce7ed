/**
 * What the build gives for `sqlite3` (esbuild's --alias in package.json): the package as `require`
 * returns it. @keyv/sqlite, bundled, imports it as an ES module (`import sqlite3 from 'sqlite3'`), and
 * Node reads a CommonJS package imported so through its ES module loader first — its export lexer,
 * compiled for the purpose, parses the file to find the names it exports (~4 ms of every start that
 * opens a SQLite store). `require` loads it as CommonJS only.
 */
import {createRequire} from 'node:module';

const sqlite3 = createRequire(import.meta.url)('sqlite3') as typeof import('sqlite3');
export default sqlite3;
