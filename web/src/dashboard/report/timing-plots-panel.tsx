/**
 * The report's plots over stream time: bit rate by PID, stacked (GET
 * /analysis/bitrate-over-time, a pass over the file made when asked), and the
 * accuracy of every PCR (from the run's `mpegts/pcr-values` dataset). Each
 * loads on its own, so the quick one shows while the other is read.
 */
import type { ApiClient } from '../api-client.js';
import { ErrorNotice } from '../error-notice.js';
import { useApiData } from '../use-api-data.js';
import { loadBitrateOverTime } from './bitrate-over-time-api.js';
import { PcrAccuracyPlot } from './pcr-accuracy-plot.js';
import { pcrAccuracySeries, type PcrValueRow } from './pcr-accuracy-series.js';
import { PidBitratePlot } from './pid-bitrate-plot.js';

/** ISO/IEC 13818-1 2.4.2.1 and TR 101 290 2.4: ±500 ns. */
const PCR_ACCURACY_LIMIT_NS = 500;

export function TimingPlotsPanel({ api, filePath, runId }: { api: ApiClient; filePath: string; runId: string }) {
  const bitrate = useApiData(() => loadBitrateOverTime(api, filePath), [api, filePath]);
  const pcr = useApiData(async () => {
    const page = await api.get<{ rows: PcrValueRow[] }>(`/automation/ingest-runs/${encodeURIComponent(runId)}/mpegts/pcr-values`);
    return pcrAccuracySeries(page.rows);
  }, [api, runId]);
  return (
    <section class="panel timing-plots">
      <h2>Over time</h2>
      {bitrate.state === 'loading' && <p class="loading">Counting every PID's packets over time…</p>}
      {bitrate.state === 'failed' && <ErrorNotice error={bitrate.error} what="count the bit rate over time" />}
      {bitrate.state === 'loaded' && <PidBitratePlot series={bitrate.data} />}
      {pcr.state === 'loading' && <p class="loading">Reading the PCRs…</p>}
      {pcr.state === 'failed' && <ErrorNotice error={pcr.error} what="read the PCRs" />}
      {pcr.state === 'loaded' && <PcrAccuracyPlot series={pcr.data} limitNs={PCR_ACCURACY_LIMIT_NS} />}
    </section>
  );
}
