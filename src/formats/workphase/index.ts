export { linkResearch, researchPathOf } from "./link.js";
export { parseWorkphasePlan } from "./plan.js";
export { parseWorkphaseResearch } from "./research.js";
