export async function main(argv: string[]): Promise<number> {
  console.log('hello', argv);
  return 0;
}
