import { runSandboxHost } from "./host.js";

// Development entry of the sandbox host (tests start it through tsx); the
// bundles start it with SANDBOX_HOST_ARG instead. The config is the last argument.
runSandboxHost(process.argv[process.argv.length - 1] ?? "");
