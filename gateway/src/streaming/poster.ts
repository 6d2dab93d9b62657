/**
 * The poster: the image a viewer shows while nothing plays (Info `poster`).
 * Built in, as SVG, so it needs no file and scales to any player size.
 */
export const POSTER_FILE_NAME = 'poster.svg';

export const POSTER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360" width="640" height="360">
<rect width="640" height="360" fill="#101820"/>
<g fill="none" stroke="#2e4a5c" stroke-width="1">
<path d="M0 90H640M0 180H640M0 270H640M160 0V360M320 0V360M480 0V360"/>
</g>
<g transform="translate(320 150)" fill="#7fb8d8">
<path d="M0-38 6-10 38 4V12L6 4 4 26 14 34V40L0 35-14 40V34L-4 26-6 4-38 12V4L-6-10Z"/>
</g>
<text x="320" y="240" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="26" fill="#d8e6ee">klvscope</text>
<text x="320" y="272" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="15" fill="#7f98a8">waiting for the stream</text>
</svg>
`;
