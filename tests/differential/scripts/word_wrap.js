// Wrap paragraphs at a width, breaking overlong words, keeping blank lines.
function wrap(text, width) {
  return text.split("\n").map((para) => {
    const words = para.split(/\s+/).filter(Boolean);
    const lines = [];
    let line = "";
    for (let w of words) {
      while (w.length > width) {
        if (line) { lines.push(line); line = ""; }
        lines.push(w.slice(0, width - 1) + "-");
        w = w.slice(width - 1);
      }
      if (!line) line = w;
      else if (line.length + 1 + w.length <= width) line += " " + w;
      else { lines.push(line); line = w; }
    }
    if (line) lines.push(line);
    return lines.join("\n");
  }).join("\n");
}
return wrap(input.text, input.width).split("\n");
