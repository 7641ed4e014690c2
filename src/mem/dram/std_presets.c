/* Built-in DRAM presets. Each value cites its source; "[derived]" marks a value computed from a
 * time in ns at the preset's tCK (rounded up), and the reason is given beside it.
 * Sources: USIMM v1.3 input/ .vi and .cfg files (DDR3); JEDEC JESD79-4 speed bin DDR4-2400R and
 * Micron 8Gb x8 datasheet currents (DDR4); GPGPU-Sim SM2_GTX480 config for the Hynix H5GQ1H24AFR
 * with Ramulator's GDDR5_4000 secondaries (GDDR5); seed 000 Table 2 plus the Accel-Sim RTX3070
 * GDDR6 timing string for the values it omits (GDDR6); Accel-Sim SM7_QV100 (HBM2 at 850 MHz) and
 * Ramulator 2.1 HBM2_2000Mbps with JESD235 secondaries (JEDEC-style HBM2); the H100 SXM5's
 * clocks and bus as a real one reports them, with the JEDEC-style HBM2 array times (HBM3). */
#include "mem/dram/dram_spec.h"

/* DDR3-1600 11-11-11 exactly as USIMM v1.3 1channel.cfg + 2Gb_x4.vi (tRFC 128 = 2 Gb chip,
 * the value the .cfg comment lists). 800 MHz command clock, BL8 on a 64-bit bus = 64 B lines;
 * a 128-line row = 8 KB. RTW = tCAS + tBURST + tRTRS - tCWD as USIMM applies it. */
static const struct dram_spec ddr3_1600_usimm = {
    .preset = "ddr3-1600",
    .std = DRAM_DDR3,
    .channels = 1,
    .pseudo_channels = 1,
    .ranks = 2,
    .bankgroups = 1,
    .banks_per_group = 8,
    .rows = 32768,
    .columns = 128,
    .bus_bits = 64,
    .burst_length = 8,
    .dual_cmd_bus = false,
    .tCK_ps = 1250,
    .nBL = 4,
    .CL = 11,
    .CWL = 5,
    .RCDRD = 11,
    .RCDWR = 11,
    .RP = 11,
    .RAS = 28,
    .RC = 39,
    .RRD_S = 5,
    .RRD_L = 5,
    .FAW = 32,
    .X32AW = 0,
    .CCD_S = 4,
    .CCD_L = 4,
    .WTR_S = 6,
    .WTR_L = 6,
    .RTW = 11 + 4 + 2 - 5,
    .WR = 12,
    .RTP = 6,
    .RTRS = 2,
    .REFI = 6240,
    .RFC = 128,
    .XP = 5,
    .XPDLL = 20,
    .CKE = 4,
    /* USIMM 2Gb_x4.vi currents (dissertation Table 5.4), 16 x4 chips per rank */
    .VDD = 1.5,
    .IDD0 = 42,
    .IDD2P0 = 12,
    .IDD2P1 = 15,
    .IDD2N = 23,
    .IDD3P = 22,
    .IDD3N = 35,
    .IDD4R = 96,
    .IDD4W = 99,
    .IDD5 = 112,
    .devices_per_rank = 16,
};

/* DDR4-2400R (17-17-17), 8 Gb x8 devices, one rank of 8 chips (single-rank DIMM): 4 BG x 4 banks,
 * 64K rows, 1K device columns = 128 bursts of 64 B (8 KB row). tCK 0.833 ns. Secondaries from
 * JESD79-4 for 2400 / 1 KB page: tRRD_S max(4nCK,3.3ns)=4, tRRD_L max(4nCK,4.9ns)=6, tFAW 21ns=26,
 * tCCD_L max(5nCK,5ns)=6, tWTR_S max(2nCK,2.5ns)=3, tWTR_L max(4nCK,7.5ns)=9, tWR 15ns=18,
 * tRTP max(4nCK,7.5ns)=9, tRFC1(8Gb) 350ns=420, tREFI 7.8us=9360, tXP max(4nCK,6ns)=8,
 * tXPDLL max(10nCK,24ns)=29, tCKE max(3nCK,5ns)=6. RTW = CL + nBL + 2 - CWL (JESD79-4
 * RL+BL/2-WL+2tCK). Currents: Micron 8Gb x8 DDR4-2400 datasheet class values. */
static const struct dram_spec ddr4_2400 = {
    .preset = "ddr4-2400",
    .std = DRAM_DDR4,
    .channels = 1,
    .pseudo_channels = 1,
    .ranks = 1,
    .bankgroups = 4,
    .banks_per_group = 4,
    .rows = 65536,
    .columns = 128,
    .bus_bits = 64,
    .burst_length = 8,
    .dual_cmd_bus = false,
    .tCK_ps = 833,
    .nBL = 4,
    .CL = 17,
    .CWL = 12,
    .RCDRD = 17,
    .RCDWR = 17,
    .RP = 17,
    .RAS = 39,
    .RC = 56,
    .RRD_S = 4,
    .RRD_L = 6,
    .FAW = 26,
    .X32AW = 0,
    .CCD_S = 4,
    .CCD_L = 6,
    .WTR_S = 3,
    .WTR_L = 9,
    .RTW = 17 + 4 + 2 - 12,
    .WR = 18,
    .RTP = 9,
    .RTRS = 2,
    .REFI = 9360,
    .RFC = 420,
    .XP = 8,
    .XPDLL = 29,
    .CKE = 6,
    .VDD = 1.2,
    .IDD0 = 60,
    .IDD2P0 = 25,
    .IDD2P1 = 25,
    .IDD2N = 33,
    .IDD3P = 37,
    .IDD3N = 44,
    .IDD4R = 144,
    .IDD4W = 165,
    .IDD5 = 250,
    .devices_per_rank = 8,
};

/* The Hynix H5GQ1H24AFR (1 Gb x32) GDDR5 organisation both GDDR5 presets share: six channels of
 * 2 chips = 64 bits -> 64 B bursts (BL8 at QDR data: 2 command cycles), 16 banks in 4 bank groups,
 * 4K rows, 2 KB page per chip -> 4 KB row = 64 bursts. */
#define H5GQ1H24AFR_ORG_BL(cols, bl)                                                               \
    .std = DRAM_GDDR5, .channels = 6, .pseudo_channels = 1, .ranks = 1, .bankgroups = 4,           \
    .banks_per_group = 4, .rows = 4096, .columns = (cols), .bus_bits = 64, .burst_length = (bl),   \
    .dual_cmd_bus = false
#define H5GQ1H24AFR_ORG H5GQ1H24AFR_ORG_BL(64, 8)

/* Currents per x32 chip at 1.5 V: DRAMsim3 configs/GDDR5_1Gb_x32.ini, the same part at 6 Gb/s
 * (its tRCD 12 ns, tRFC 65 ns, tFAW 23 ns match the H5GQ1H24AFR as gem5 lists it): IDD0 490,
 * IDD2P 210 (one figure: fast = slow), IDD2N 250, IDD3P 310, IDD3N 450, IDD4R 1080, IDD4W 1160,
 * IDD5AB 450. IDD5 = IDD3N here: a REF costs nothing above standby in this data. 2 chips per
 * channel. */
#define H5GQ1H24AFR_CURRENTS                                                                       \
    .VDD = 1.5, .IDD0 = 490, .IDD2P0 = 210, .IDD2P1 = 210, .IDD2N = 250, .IDD3P = 310,             \
    .IDD3N = 450, .IDD4R = 1080, .IDD4W = 1160, .IDD5 = 450, .devices_per_rank = 2

/* GDDR5 H5GQ1H24AFR as GPGPU-Sim's GTX480: 924 MHz command clock, QDR data (ratio 4).
 * Timing string nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:
 * CCDL=3:RTPL=2. RCDWR 10, FAW 23 and 32AW 184 from the same part at 4 Gb/s (Ramulator
 * GDDR5_4000); refresh 1 Gb: tREFI 3.9us = 3604, tRFC 110 ns = 102 [derived].
 * RTW = CL + nBL + 2 - WL (GPGPU-Sim's tRTW). */
static const struct dram_spec gddr5_gtx480 = {
    .preset = "gddr5-gtx480",
    H5GQ1H24AFR_ORG,
    .tCK_ps = 1082,
    .nBL = 2,
    .CL = 12,
    .CWL = 4,
    .RCDRD = 12,
    .RCDWR = 10,
    .RP = 12,
    .RAS = 28,
    .RC = 40,
    .RRD_S = 6,
    .RRD_L = 6,
    .FAW = 23,
    .X32AW = 184,
    .CCD_S = 2,
    .CCD_L = 3,
    .WTR_S = 5,
    .WTR_L = 5,
    .RTW = 12 + 2 + 2 - 4,
    .WR = 12,
    .RTP = 2,
    .RTRS = 1,
    .REFI = 3604,
    .RFC = 102,
    .XP = 10,
    .XPDLL = 10,
    .CKE = 10,
    /* measured at 6 Gb/s: an upper bound at the GTX480's 3.7 Gb/s */
    H5GQ1H24AFR_CURRENTS,
};

/* GDDR5 of seed 002 Table 4.1 (Chatterjee's warp-aware GPU study): the same Hynix H5GQ1H24AFR
 * organisation as gddr5-gtx480, but at 6 Gb/s per pin with a 1.5 GHz command clock (tCK 0.667
 * ns), so 48 GB/s per 64-bit channel, 288 GB/s for six. Table 4.1 prints GPGPU-Sim's cycle values
 * labelled as ns; the thesis's own MERB arithmetic takes them as ns (tRC 60, tRCD = tCAS 18 tCK),
 * so they are converted here at 0.667 ns: tRC 40 ns = 60, tRCD = tRP = tCL 12 ns = 18, tRAS 28 ns
 * = 42, tFAW 23 ns = 35, tWTR 5 ns = 8, tRTP 2 ns = 3; tWL 4, tCCDL 3, tCCDS 2 and tRTRS 1 are
 * printed in tCK. Not in the table: tRRD and tWR (GPGPU-Sim's 6 and 12, read as ns like the
 * rest: 9 and 18), one tRCD for reads and writes (USIMM's DRAM model, which the thesis uses, has
 * one), no t32AW (nor has USIMM), refresh as gddr5-gtx480 in ns (tREFI 3.9 us = 5850, tRFC 110 ns
 * = 165) [derived]. RTW = CL + nBL + 2 - WL as gddr5-gtx480. Currents: gddr5-gtx480's, which
 * DRAMsim3 lists for this part at 6 Gb/s. */
/* Table 4.1's timings, shared by gddr5-6gbps and gddr5-6gbps-line (which differ only in the
 * access size: nBL, tCCD, RTW and the columns of a row). */
#define GDDR5_6GBPS_TIMING                                                                         \
    .tCK_ps = 667, .CL = 18, .CWL = 4, .RCDRD = 18, .RCDWR = 18, .RP = 18, .RAS = 42, .RC = 60,    \
    .RRD_S = 9, .RRD_L = 9, .FAW = 35, .X32AW = 0, .WTR_S = 8, .WTR_L = 8, .WR = 18, .RTP = 3,     \
    .RTRS = 1, .REFI = 5850, .RFC = 165, .XP = 15, .XPDLL = 15, .CKE = 15

static const struct dram_spec gddr5_6gbps = {
    .preset = "gddr5-6gbps",
    H5GQ1H24AFR_ORG,
    GDDR5_6GBPS_TIMING,
    .nBL = 2,
    .CCD_S = 2,
    .CCD_L = 3,
    .RTW = 18 + 2 + 2 - 4,
    H5GQ1H24AFR_CURRENTS,
};

/* gddr5-6gbps as the thesis times it (seed 002 Sec. 4.3.5.1: "a 64-bit channel of 2 x32 chips
 * moves a 128 B line in tBURST = 4 command clocks"): one column access moves a whole 128 B line
 * (16 beats, two back-to-back BL8 bursts that the thesis's USIMM-based model times as one), so a
 * line is one request and one column command, column commands are a line's 4 tCK apart in any
 * bank group (tCCDS 2 and tCCDL 3 are BL8 figures), and MERB's hits are counted in lines. The
 * 4 KB row holds 32 such accesses. RTW = CL + nBL + 2 - WL. Everything else is gddr5-6gbps's. */
static const struct dram_spec gddr5_6gbps_line = {
    .preset = "gddr5-6gbps-line",
    H5GQ1H24AFR_ORG_BL(32, 16),
    GDDR5_6GBPS_TIMING,
    .nBL = 4,
    .CCD_S = 4,
    .CCD_L = 4,
    .RTW = 18 + 4 + 2 - 4,
    H5GQ1H24AFR_CURRENTS,
};

/* GDDR6 of seed 000 Table 2 ("similar to RTX 2060 Super"): tRP=20 tRC=62 tRAS=50 tRCD=20
 * tRRD=10 tWR=20 tCL=20 tCCD=4, in GPGPU-Sim's 3500 MHz command clock (ratio 4: BL16 takes 4
 * cycles). One x16 channel -> 32 B bursts, 1 KB row (seed 000) = 32 bursts; 16 banks in 4 BG.
 * Omitted values from the Accel-Sim RTX3070 GDDR6 string: WL=8, CDLR=10 (WTR), CCDL=6,
 * RTPL=4. RCDWR 12 (Ramulator GDDR6 RCDWR/RCDRD ratio 16/27 of 20); FAW 16 ns = 56, tRFC
 * 120 ns = 420, tREFI 1.9 us = 6650 [derived, JESD250 class]. 16 channels x 16 bit x 14 Gb/s
 * = 448 GB/s, the RTX 2060 Super's bandwidth. Two time bases, on purpose: the core timings are
 * the seed's cycle counts at GPGPU-Sim's 3.5 GHz (tRCD 5.7 ns, a closed-bank read 12.6 ns),
 * shorter than a real part's (ACT to data about 30 ns), so that results compare with the
 * seed's; FAW and refresh, which the seed leaves out, are real nanoseconds converted. */
static const struct dram_spec gddr6_rtx2060s = {
    .preset = "gddr6-rtx2060s",
    .std = DRAM_GDDR6,
    .channels = 16,
    .pseudo_channels = 1,
    .ranks = 1,
    .bankgroups = 4,
    .banks_per_group = 4,
    .rows = 16384,
    .columns = 32,
    .bus_bits = 16,
    .burst_length = 16,
    .dual_cmd_bus = false,
    .tCK_ps = 286,
    .nBL = 4,
    .CL = 20,
    .CWL = 8,
    .RCDRD = 20,
    .RCDWR = 12,
    .RP = 20,
    .RAS = 50,
    .RC = 62,
    .RRD_S = 10,
    .RRD_L = 10,
    .FAW = 56,
    .X32AW = 0,
    .CCD_S = 4,
    .CCD_L = 6,
    .WTR_S = 10,
    .WTR_L = 10,
    .RTW = 20 + 4 + 2 - 8,
    .WR = 20,
    .RTP = 4,
    .RTRS = 1,
    .REFI = 6650,
    .RFC = 420,
    .XP = 24,
    .XPDLL = 24,
    .CKE = 24,
    /* Currents per x16 channel at 1.35 V: DRAMsim3 GDDR6_8Gb_x16.ini (device_width 16, one
     * channel of an 8 Gb two-channel die; as carried by the hplp/DRAMsim3 fork and reused by
     * Arches' Ramulator 2 GDDR6A preset): IDD0 71, IDD2P 45 (fast = slow), IDD2N 60, IDD3P 50,
     * IDD3N 61, IDD4R 248, IDD4W 231, IDD5AB 286. A rank here is that one channel. */
    .VDD = 1.35,
    .IDD0 = 71,
    .IDD2P0 = 45,
    .IDD2P1 = 45,
    .IDD2N = 60,
    .IDD3P = 50,
    .IDD3N = 61,
    .IDD4R = 248,
    .IDD4W = 231,
    .IDD5 = 286,
    .devices_per_rank = 1,
};

/* HBM2 of Accel-Sim SM7_QV100 (Tesla V100): 850 MHz, 32 legacy-mode 128-bit channels, BL2
 * (ratio 2: 1 command cycle per 32 B burst), dual command bus, 16 banks in 4 BG.
 * nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3.
 * 2 KB row = 64 bursts, 16K rows (512 MB per channel, 16 GB). RCDWR 10, FAW 15 ns = 13,
 * tRFC 350 ns = 298, tREFI 3.9 us = 3316 [derived, JESD235]. 32 x 32 B x 850 MHz = 870 GB/s. */
static const struct dram_spec hbm2_qv100 = {
    .preset = "hbm2-qv100",
    .std = DRAM_HBM2,
    .channels = 32,
    .pseudo_channels = 1,
    .ranks = 1,
    .bankgroups = 4,
    .banks_per_group = 4,
    .rows = 16384,
    .columns = 64,
    .bus_bits = 128,
    .burst_length = 2,
    .dual_cmd_bus = true,
    .tCK_ps = 1176,
    .nBL = 1,
    .CL = 12,
    .CWL = 2,
    .RCDRD = 12,
    .RCDWR = 10,
    .RP = 12,
    .RAS = 28,
    .RC = 40,
    .RRD_S = 3,
    .RRD_L = 3,
    .FAW = 13,
    .X32AW = 0,
    .CCD_S = 1,
    .CCD_L = 2,
    .WTR_S = 3,
    .WTR_L = 3,
    .RTW = 12 + 1 + 2 - 2,
    .WR = 10,
    .RTP = 3,
    .RTRS = 1,
    .REFI = 3316,
    .RFC = 298,
    .XP = 7,
    .XPDLL = 7,
    .CKE = 7,
    /* Currents per 128-bit legacy channel at 1.2 V: DRAMsim3 configs/HBM2_8Gb_x128.ini
     * (device_width 128, tCK 1 ns): IDD0 65, IDD2P 28 (fast = slow), IDD2N 40, IDD3P 40,
     * IDD3N 55, IDD4R 390, IDD4W 500, IDD5AB 250; measured at 2 Gb/s, an upper bound at 1.7. */
    .VDD = 1.2,
    .IDD0 = 65,
    .IDD2P0 = 28,
    .IDD2P1 = 28,
    .IDD2N = 40,
    .IDD3P = 40,
    .IDD3N = 55,
    .IDD4R = 390,
    .IDD4W = 500,
    .IDD5 = 250,
    .devices_per_rank = 1,
};

/* JEDEC-style HBM2 at 2 Gb/s (Ramulator 2.1 HBM2_2000Mbps): tCK 1 ns, 2 pseudo-channels of 64
 * bits per channel, BL4 = 2 cycles -> 32 B bursts, 4 BG x 4 banks per PC, 4 Gb: 32K rows of
 * 1 KB (32 bursts). CL 14, RCDRD 14, RCDWR 12, RP 14, RAS 34, RC 48, WR 16, RTP 5, CWL 5,
 * CCD_S 2, CCD_L 4, WTR_S 6, WTR_L 8, RRD 4, FAW 15, tRFC(4Gb) 260, tREFI 3900 (JESD235).
 * 8 channels x 2 PCs x 16 GB/s = 256 GB/s per stack. */
static const struct dram_spec hbm2_jedec = {
    .preset = "hbm2",
    .std = DRAM_HBM2,
    .channels = 8,
    .pseudo_channels = 2,
    .ranks = 1,
    .bankgroups = 4,
    .banks_per_group = 4,
    .rows = 32768,
    .columns = 32,
    .bus_bits = 64,
    .burst_length = 4,
    .dual_cmd_bus = true,
    .tCK_ps = 1000,
    .nBL = 2,
    .CL = 14,
    .CWL = 5,
    .RCDRD = 14,
    .RCDWR = 12,
    .RP = 14,
    .RAS = 34,
    .RC = 48,
    .RRD_S = 4,
    .RRD_L = 4,
    .FAW = 15,
    .X32AW = 0,
    .CCD_S = 2,
    .CCD_L = 4,
    .WTR_S = 6,
    .WTR_L = 8,
    .RTW = 14 + 2 + 2 - 5,
    .WR = 16,
    .RTP = 5,
    .RTRS = 1,
    .REFI = 3900,
    .RFC = 260,
    .XP = 8,
    .XPDLL = 8,
    .CKE = 8,
    /* Currents: DRAMsim3 configs/HBM2_8Gb_x128.ini (same 1 ns bin) gives them per 128-bit
     * channel (IDD0 65, IDD2P 28, IDD2N 40, IDD3P 40, IDD3N 55, IDD4R 390, IDD4W 500, IDD5AB 250
     * at 1.2 V); a rank unit here is one 64-bit pseudo-channel, half the DQs and half the page,
     * so each current is halved [derived]. */
    .VDD = 1.2,
    .IDD0 = 32.5,
    .IDD2P0 = 14,
    .IDD2P1 = 14,
    .IDD2N = 20,
    .IDD3P = 20,
    .IDD3N = 27.5,
    .IDD4R = 195,
    .IDD4W = 250,
    .IDD5 = 125,
    .devices_per_rank = 1,
};

/* HBM3 of the H100 SXM5 80 GB, as the one measured for docs/calibration.md reports itself: 5
 * stacks on a 5120-bit bus at 2619 MHz (5.24 Gb/s per pin, 3352 GB/s), i.e. 80 channels of 64
 * bits, each 2 pseudo-channels of 32 bits. HBM3 moves 4 bits per pin per CK (CK = 1309.5 MHz,
 * tCK 764 ps); a 32-bit pseudo-channel's BL8 (32 B) is modelled as 64 bits x BL4, 2 tCK, the
 * way Ramulator 2 folds HBM3's quad data rate. 16 Gb dies, 8-high (16 GB per stack): 512 MB
 * per pseudo-channel = 4 BG x 4 banks x 32K rows of 1 KB (32 bursts). The array times are the
 * JEDEC-style HBM2 preset's in ns (they change little across HBM generations; JESD238's own
 * bins are not public), rounded up to this tCK [derived]: CL 14 ns = 19, RCDRD 14 = 19, RCDWR
 * 12 = 16, RP 14 = 19, RAS 34 = 45, RC 48 = 63, WR 16 = 21, RTP 5 = 7, CWL 5 = 7, RRD 4 = 6,
 * FAW 15 = 20, CCD_L 4 = 6, WTR_S 6 = 8, WTR_L 8 = 11, tRFC (16 Gb) 450 ns = 590, tREFI
 * 3.9 us = 5105. CCD_S = nBL = 2 (back-to-back bursts). HBM3 refreshes per bank (REFpb): tRFCpb
 * 200 ns = 262 [derived: DDR5 16 Gb's tRFCsb / tRFC1 = 130 / 295 of tRFC], tRREFD 8 (Ramulator
 * 2's HBM3 nRREFD); a controller on auto refreshes one bank every tREFI / 16 = 319 tCK. */
static const struct dram_spec hbm3_h100 = {
    .preset = "hbm3-h100",
    .std = DRAM_HBM3,
    .channels = 80,
    .pseudo_channels = 2,
    .ranks = 1,
    .bankgroups = 4,
    .banks_per_group = 4,
    .rows = 32768,
    .columns = 32,
    .bus_bits = 64,
    .burst_length = 4,
    .dual_cmd_bus = true,
    .tCK_ps = 764,
    .nBL = 2,
    .CL = 19,
    .CWL = 7,
    .RCDRD = 19,
    .RCDWR = 16,
    .RP = 19,
    .RAS = 45,
    .RC = 63,
    .RRD_S = 6,
    .RRD_L = 6,
    .FAW = 20,
    .X32AW = 0,
    .CCD_S = 2,
    .CCD_L = 6,
    .WTR_S = 8,
    .WTR_L = 11,
    .RTW = 19 + 2 + 2 - 7,
    .WR = 21,
    .RTP = 7,
    .RTRS = 1,
    .REFI = 5105,
    .RFC = 590,
    .RFCpb = 262,
    .RREFD = 8,
    .XP = 10,
    .XPDLL = 10,
    .CKE = 10,
    /* The JEDEC-style HBM2 preset's per-pseudo-channel currents, unchanged, at HBM3's 1.1 V core
     * supply [derived]: no public HBM3 IDD table, so only the supply differs (energy per access
     * falls by 1.1 / 1.2 with it). */
    .VDD = 1.1,
    .IDD0 = 32.5,
    .IDD2P0 = 14,
    .IDD2P1 = 14,
    .IDD2N = 20,
    .IDD3P = 20,
    .IDD3N = 27.5,
    .IDD4R = 195,
    .IDD4W = 250,
    .IDD5 = 125,
    .devices_per_rank = 1,
};

/* HBM3e of the H200 (SXM, 141 GB), as the one measured for docs/calibration.md reports itself:
 * a 6016-bit bus at 3201 MHz (6.40 Gb/s per pin, 4814 GB/s), i.e. 94 channels of 64 bits (6
 * stacks of 16, two channels off: 141 of 144 GB), each 2 pseudo-channels of 32 bits. Folded
 * like hbm3-h100 (64 bits x BL4, 2 tCK; CK = 1600.5 MHz, tCK 625 ps). 24 Gb dies, 8-high (24 GB
 * per stack) hold 768 MB per pseudo-channel, 1.5 times hbm3-h100's rows; rows must be a power
 * of two here, so the model keeps 32K rows of 1 KB per bank (94 GB addressed, far beyond any
 * trace's footprint; row-buffer behaviour does not depend on the row count). The array times
 * are hbm3-h100's in ns, rounded up to this tCK [derived]: CL 14 ns = 23, RCDRD 14 = 23, RCDWR
 * 12 = 20, RP 14 = 23, RAS 34 = 55, RC 48 = 77, WR 16 = 26, RTP 5 = 8, CWL 5 = 8, RRD 4 = 7,
 * FAW 15 = 24, CCD_L 4 = 7, WTR_S 6 = 10, WTR_L 8 = 13, tREFI 3.9 us = 6240, tRFC 450 ns =
 * 720, tRFCpb 200 ns = 320, power-down exits 7.6 ns = 13. A 24 Gb die may refresh longer, but
 * no public figure says by how much (DDR5's 24 Gb ratio would put tRFCpb at 292 ns, longer
 * than the tREFI / 16 = 244 ns between two per-bank REFs of a pseudo-channel). */
static const struct dram_spec hbm3e_h200 = {
    .preset = "hbm3e-h200",
    .std = DRAM_HBM3,
    .channels = 94,
    .pseudo_channels = 2,
    .ranks = 1,
    .bankgroups = 4,
    .banks_per_group = 4,
    .rows = 32768,
    .columns = 32,
    .bus_bits = 64,
    .burst_length = 4,
    .dual_cmd_bus = true,
    .tCK_ps = 625,
    .nBL = 2,
    .CL = 23,
    .CWL = 8,
    .RCDRD = 23,
    .RCDWR = 20,
    .RP = 23,
    .RAS = 55,
    .RC = 77,
    .RRD_S = 7,
    .RRD_L = 7,
    .FAW = 24,
    .X32AW = 0,
    .CCD_S = 2,
    .CCD_L = 7,
    .WTR_S = 10,
    .WTR_L = 13,
    .RTW = 23 + 2 + 2 - 8,
    .WR = 26,
    .RTP = 8,
    .RTRS = 1,
    .REFI = 6240,
    .RFC = 720,
    .RFCpb = 320,
    .RREFD = 8,
    .XP = 13,
    .XPDLL = 13,
    .CKE = 13,
    /* hbm3-h100's currents (the JEDEC-style HBM2 preset's per pseudo-channel) at 1.1 V: no
     * public HBM3e IDD table [derived] */
    .VDD = 1.1,
    .IDD0 = 32.5,
    .IDD2P0 = 14,
    .IDD2P1 = 14,
    .IDD2N = 20,
    .IDD3P = 20,
    .IDD3N = 27.5,
    .IDD4R = 195,
    .IDD4W = 250,
    .IDD5 = 125,
    .devices_per_rank = 1,
};

const struct dram_preset dram_presets[] = {
    {"ddr3-1600", "DDR3-1600 11-11-11, USIMM v1.3 1-channel (2 ranks x 8 banks)", &ddr3_1600_usimm},
    {"ddr4-2400", "DDR4-2400R 17-17-17, 8Gb x8, 1 rank x 16 banks (4 BG)", &ddr4_2400},
    {"gddr5-gtx480", "GDDR5 H5GQ1H24AFR @924 MHz, GTX480 (6 x 64-bit, 177 GB/s)", &gddr5_gtx480},
    {"gddr5-6gbps", "GDDR5 6 Gb/s of seed 002 Table 4.1 (6 x 64-bit, 288 GB/s)", &gddr5_6gbps},
    {"gddr5-6gbps-line", "gddr5-6gbps timed as seed 002 does: a 128 B line per access, 4 tCK",
     &gddr5_6gbps_line},
    {"gddr6-rtx2060s",
     "GDDR6 14 Gb/s of seed 000 Table 2 (16 x16 channels, 448 GB/s; its cycle counts at "
     "GPGPU-Sim's 3.5 GHz: faster than a real part)",
     &gddr6_rtx2060s},
    {"hbm2-qv100", "HBM2 of Accel-Sim QV100 @850 MHz (32 x 128-bit, 870 GB/s)", &hbm2_qv100},
    {"hbm2", "JEDEC-style HBM2 2 Gb/s stack (8 ch x 2 pseudo-channels, 256 GB/s)", &hbm2_jedec},
    {"hbm3-h100", "HBM3 of the H100 SXM5 80 GB (5 stacks: 80 ch x 2 pseudo-channels, 3352 GB/s)",
     &hbm3_h100},
    {"hbm3e-h200", "HBM3e of the H200 SXM 141 GB (94 ch x 2 pseudo-channels, 4814 GB/s)",
     &hbm3e_h200},
};
const unsigned dram_npresets = sizeof dram_presets / sizeof dram_presets[0];
