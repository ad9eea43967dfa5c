/** Black or white text on the brand colour, by perceived brightness (as the 1.6 renderer decides). */
export function textColorOn(hex: string): string {
  let h = hex.replace('#', '');
  if (h.length === 3) h = h.replace(/./g, '$&$&');
  const n = parseInt(h, 16);
  if (h.length !== 6 || Number.isNaN(n)) return '#fff';
  return 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255) > 128 ? '#000' : '#fff';
}

/**
 * system-ui is the platform's interface font in every current browser (San Francisco, Segoe UI, Roboto);
 * each further family named would be one more font lookup during the first layout of a survey.
 */
const FAMILY = 'system-ui,sans-serif';
/** The faces a survey draws with (text, buttons, headlines), looked up ahead of the first survey (index.tsx). */
export const FACES = ['', '500 ', '600 '].map((weight) => `${weight}16px ${FAMILY}`);

// Lives inside the shadow root; --b / --bt (brand colour and the text on it) are set on the layer.
export const CSS = `
:host{all:initial}
*{box-sizing:border-box}
.l{position:fixed;inset:0;display:flex;align-items:flex-end;z-index:999999;pointer-events:none;font:16px/1.5 ${FAMILY};color:#0f172a}
.in{position:static;display:block}.in .m{position:relative;max-width:none;margin:0;box-shadow:none}
.l.c{pointer-events:auto;background:rgba(255,255,255,.5)}
.l.dk{background:rgba(55,65,81,.8)}
.m{pointer-events:auto;position:absolute;bottom:0;left:0;width:100%;max-height:100vh;overflow:auto;background:#fff;border:1px solid #cbd5e1;border-radius:8px;box-shadow:0 20px 25px -5px rgba(0,0,0,.15),0 8px 10px -6px rgba(0,0,0,.1)}
.hl{border:2px solid var(--hl);border-radius:8px}
@media(min-width:640px){.m{max-width:24rem;margin:1rem;left:auto}
.bottomRight{bottom:.75rem;right:.75rem}.bottomLeft{bottom:.75rem;left:.75rem}
.topRight{top:.75rem;right:.75rem;bottom:auto}.topLeft{top:.75rem;left:.75rem;bottom:auto}
.center{top:50%;left:50%;bottom:auto;margin:0;transform:translate(-50%,-50%)}}
.s{padding:1.5rem 1.5rem .75rem;outline:0}
.x{position:absolute;top:.5rem;right:.5rem;width:2rem;height:2rem;border:0;border-radius:6px;background:none;color:#64748b;font-size:1.25rem;cursor:pointer}
.x:hover{color:#334155}
.h{margin:0 1.5rem .25rem 0;font-size:1rem;font-weight:600;line-height:1.5}
.o{margin-left:.5rem;font-size:.75rem;font-weight:400;color:#64748b}
.sub,.body{margin:0 0 .5rem;font-size:.875rem;color:#334155}
.body p{margin:0 0 .5rem}
.qi{display:block;max-width:100%;max-height:10rem;margin:0 auto 1rem;border-radius:6px}
.logo{max-height:3rem;max-width:8rem;margin-bottom:1rem}
fieldset{border:0;margin:1rem 0 0;padding:0;min-width:0}
.ch{display:flex;align-items:center;gap:.75rem;margin-bottom:.5rem;padding:.75rem 1rem;border:1px solid #cbd5e1;border-radius:6px;background:#f8fafc;font-size:.875rem;cursor:pointer}
.ch:focus-within,.ch:hover{border-color:#64748b;background:#f1f5f9}
input[type=radio],input[type=checkbox]{accent-color:var(--b);width:1rem;height:1rem;margin:0;flex:none}
input,textarea{font:inherit;font-size:.875rem}
.t{display:block;width:100%;padding:.625rem .75rem;margin-top:1rem;border:1px solid #cbd5e1;border-radius:6px;background:#f8fafc;color:#0f172a}
.ch .t{margin:0}
textarea.t{resize:vertical;field-sizing:content;min-height:5rem;max-height:10rem}
:focus-visible{outline:2px solid var(--b);outline-offset:2px}
.t:focus{outline:2px solid var(--b);outline-offset:0}
.sc{display:flex}
.sc button{flex:1;min-width:0;height:2.75rem;border:1px solid #cbd5e1;margin-left:-1px;background:#f8fafc;color:#0f172a;font:inherit;font-size:.875rem;cursor:pointer}
.sc button:first-child{border-radius:6px 0 0 6px;margin:0}.sc button:last-child{border-radius:0 6px 6px 0}
.sc button:hover,.sc button[aria-pressed=true]{background:#e2e8f0;position:relative}
.sc button[aria-pressed=true]{box-shadow:inset 0 0 0 2px var(--b)}
.st button,.sm button{border:0;background:none;margin:0;height:auto;font-size:1.75rem;color:#cbd5e1}
.st button.on,.st:hover button{color:#f59e0b}
.st button:hover~button{color:#cbd5e1}
.st button[aria-pressed=true],.sm button[aria-pressed=true]{box-shadow:none}
.sm svg{width:100%;max-width:2rem;height:2rem;fill:none;stroke:#334155;stroke-width:1.5;stroke-linecap:round}
.sm button:hover svg,.sm button[aria-pressed=true] svg{fill:#fde047}
.ends{display:flex;justify-content:space-between;margin-top:.25rem;font-size:.75rem;color:#64748b}
.pg{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}
.pg label{position:relative;display:block;height:7rem;border:2px solid #e2e8f0;border-radius:8px;overflow:hidden;cursor:pointer}
.pg label:focus-within,.pg label.on{border-color:var(--b)}
.pg img{width:100%;height:100%;object-fit:cover}
.pg input{position:absolute;top:.5rem;right:.5rem}
.drop{display:block;margin-top:1rem;padding:1.5rem;border:2px dashed #cbd5e1;border-radius:8px;text-align:center;font-size:.875rem;color:#475569;cursor:pointer}
.drop:focus-within,.drop:hover{border-color:var(--b)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap}
.files{list-style:none;padding:0;margin:.5rem 0 0;font-size:.875rem}
.files button{margin-left:.5rem;border:0;background:none;color:#b91c1c;cursor:pointer}
.err{margin:.5rem 0 0;color:#b91c1c;font-size:.875rem}
.nav{display:flex;align-items:center;justify-content:space-between;gap:.5rem;margin-top:1rem}
.btn,.bk{padding:.625rem 1rem;border-radius:6px;font:inherit;font-size:.875rem;font-weight:500;cursor:pointer}
.btn{margin-left:auto;border:1px solid transparent;background:var(--b);color:var(--bt)}
.btn:hover{opacity:.9}
.bk{border:1px solid #cbd5e1;background:#fff;color:#0f172a}
.meta{margin:0;font-size:.75rem;color:#475569}
.cal{display:inline-block;margin-top:1rem;color:inherit}
.ty{text-align:center}
.ty svg{width:3rem;height:3rem;fill:none;stroke:var(--b);stroke-width:2}
.ty .nav{justify-content:center}.ty .btn{margin:0}
dl{font-size:.875rem}dt{font-weight:600}dd{margin:0 0 .5rem}
.pb{height:.25rem;background:#e2e8f0}
.pb div{height:100%;background:var(--b);transition:width .3s}
.ac{height:.25rem;background:var(--b);animation:ac linear forwards}
@keyframes ac{from{width:100%}to{width:0}}
.br{margin:0;padding:.5rem;text-align:center;font-size:.75rem;color:#64748b}
`;
