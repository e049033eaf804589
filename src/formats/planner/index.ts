export { parsePlannerContext } from "./context.js";
export { parsePlannerPlan } from "./plan.js";
export { parsePlannerQr } from "./qr.js";
