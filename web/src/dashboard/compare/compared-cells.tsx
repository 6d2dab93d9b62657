/**
 * A compared figure's two cells, A then B: the value each file has (a dash
 * where the file has no such row), B marked when it differs from A.
 */
export function ComparedCells<S>({ a, b, show }: { a: S | null; b: S | null; show: (side: S) => string }) {
  const textA = a === null ? '—' : show(a);
  const textB = b === null ? '—' : show(b);
  return (
    <>
      <td class="number side-a">{textA}</td>
      <td class={`number side-b ${textA === textB ? '' : 'differs'}`}>{textB}</td>
    </>
  );
}
