// A tiny program the demo contracts check.
export function greet(name) {
  return `Hello, ${name}!`;
}

if (process.argv[2]) console.log(greet(process.argv[2]));
