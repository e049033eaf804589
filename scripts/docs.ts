// `npm run docs`: regenerate the generated parts of README.md in place.
import { readFileSync, writeFileSync } from "node:fs";
import { problemCodesTable } from "../src/report/problem-codes-table.js";

const START = "<!-- problem-codes:start -->";
const END = "<!-- problem-codes:end -->";
const readme = readFileSync("README.md", "utf8");
const [head, rest] = readme.split(START);
const tail = rest?.split(END)[1];
if (head === undefined || tail === undefined) throw new Error(`README.md lacks ${START} … ${END}`);
writeFileSync("README.md", `${head}${START}\n${problemCodesTable()}\n${END}${tail}`);
