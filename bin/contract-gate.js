#!/usr/bin/env node
// The committed ncc bundle of src/cli.ts; `npm run bundle` rebuilds it.
import "../dist/cli/index.js";
