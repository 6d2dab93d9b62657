/** ISO/IEC 13818-1 2.4.3.2: a PID has 13 bits, so per-PID state fits in arrays this long. */
export const PID_COUNT = 0x2000;

/** ISO/IEC 13818-1 Table 2-3: the null packets' PID; a PMT's PCR_PID of 0x1FFF means no PCR. */
export const NULL_PID = 0x1fff;
