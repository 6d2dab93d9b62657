#!/bin/sh
# Makes gateway/assets/demo-clip.h264, the video of the streaming module's
# built-in demo (core/src/gen/demo-stream.ts). Run once; the clip is kept in
# the repository so the demo needs no ffmpeg.
#
# 10 s of ffmpeg's testsrc (colour bars and a seconds counter) at 640x360,
# 30 fps, H.264 Main profile in Annex B (ITU-T H.264 Annex B byte stream):
# - no B-frames (-bf 0), so PTS = DTS and the decode order is the display order;
# - an IDR every second (-g/-keyint_min 30, no scene-cut keyframes), each
#   preceded by its SPS and PPS (repeat-headers), so a viewer that joins at
#   any keyframe can decode;
# - an access unit delimiter (NAL type 9, H.264 7.4.1.2.3) before every
#   access unit, where the demo source splits the clip;
# - about 200 kb/s (I-frames of 5-8 KB), 185 KB in all.
set -eu
out="${1:-$(dirname "$0")/../gateway/assets/demo-clip.h264}"
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i testsrc=size=640x360:rate=30 -t 10 \
  -c:v libx264 -profile:v main -pix_fmt yuv420p \
  -bf 0 -g 30 -keyint_min 30 -sc_threshold 0 \
  -b:v 200k -maxrate 250k -bufsize 250k \
  -x264-params repeat-headers=1 \
  -bsf:v h264_metadata=aud=insert \
  -f h264 "$out"
ls -l "$out"
