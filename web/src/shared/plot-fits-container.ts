/**
 * A uPlot that follows its container's width (at least 300 px) at a fixed
 * height; the returned function stops following and destroys the plot (an
 * effect's cleanup).
 */
import type uPlot from 'uplot';

export const MIN_PLOT_WIDTH_PX = 300;

export function fitPlotToContainer(plot: uPlot, container: HTMLElement, heightPx: number): () => void {
  const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(container.clientWidth, MIN_PLOT_WIDTH_PX), height: heightPx }));
  resize.observe(container);
  return () => {
    resize.disconnect();
    plot.destroy();
  };
}
