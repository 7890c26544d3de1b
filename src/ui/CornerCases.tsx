export default function CornerCases() {
  return <p>…</p>;
}
