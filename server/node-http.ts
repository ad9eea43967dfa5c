// An ES import of node:http reads every export, its lazy WebSocket one too, which loads Node's fetch
// (undici): about a tenth of the start-up CPU time (bench/startup). The module object reads none, so
// the server takes node:http and node:https from here (`import type` from them costs nothing).
export const http = process.getBuiltinModule('node:http');
export const https = process.getBuiltinModule('node:https');
