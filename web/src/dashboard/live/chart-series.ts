/** A line of a live chart: its name in the legend and its colour. */
export interface ChartSeries {
  label: string;
  colour: string;
}
