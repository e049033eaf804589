// `npm run bench`: every benchmark in turn; each prints its figures and targets.
await import("./validate.mjs");
