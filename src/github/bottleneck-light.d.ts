// `bottleneck/light.js` (the build @octokit/plugin-retry and
// @octokit/plugin-throttling use) ships no typings of its own; it is the same
// API as the package's main entry.
declare module "bottleneck/light.js" {
  import Bottleneck from "bottleneck";
  export default Bottleneck;
}
