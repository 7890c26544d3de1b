export default function ApproxPlot() {
  return <p>…</p>;
}
