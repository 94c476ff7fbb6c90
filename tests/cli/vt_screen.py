"""vt_screen.py COLUMNS ROWS [FILE]: what a terminal of COLUMNS x ROWS
shows once it has displayed FILE (default stdin), the bytes programs wrote
to it (in_pty.py's output): one line per row, trailing spaces dropped.
Enough of a VT100/xterm for abtool's output: UTF-8 text (east-asian wide
characters take two columns), CR, LF, BS, TAB, the deferred wrap at the
last column, scrolling; of the escape sequences, cursor up (ESC [ n A),
erase in line (ESC [ K) and erase below (ESC [ J) act, SGR and the others
are skipped. For tests/cli/terminal_fit.sh: what stays on the screen."""
import sys
import unicodedata


def char_width(ch):
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def screen(text, cols, rows):
    grid = [[" "] * cols for _ in range(rows)]
    r = c = 0
    pending = False  # the cursor is past the last column: the next character wraps

    def down():
        nonlocal r
        if r == rows - 1:
            grid.pop(0)
            grid.append([" "] * cols)
        else:
            r += 1

    i = 0
    while i < len(text):
        ch = text[i]
        i += 1
        if ch == "\x1b":
            if i < len(text) and text[i] == "[":
                j = i + 1
                while j < len(text) and not "\x40" <= text[j] <= "\x7e":
                    j += 1
                params, final = text[i + 1:j], text[j] if j < len(text) else ""
                i = j + 1
                n = int(params) if params.isdigit() else 0
                if final == "A":
                    r, pending = max(0, r - max(n, 1)), False
                elif final == "K" and n == 0:
                    grid[r][c:] = [" "] * (cols - c)
                elif final == "J" and n == 0:
                    grid[r][c:] = [" "] * (cols - c)
                    for k in range(r + 1, rows):
                        grid[k] = [" "] * cols
            else:
                i += 1  # a two-byte sequence
        elif ch == "\r":
            c, pending = 0, False
        elif ch == "\n":
            down()
            pending = False
        elif ch == "\b":
            c, pending = max(0, c - 1), False
        elif ch == "\t":
            c = min(cols - 1, (c // 8 + 1) * 8)
        elif ch < " " or ch == "\x7f":
            pass
        else:
            w = char_width(ch)
            if w == 0:
                continue
            if pending or c + w > cols:
                c, pending = 0, False
                down()
            grid[r][c] = ch
            if w == 2:
                grid[r][c + 1] = ""
            c += w
            if c >= cols:
                c, pending = cols - 1, True
    return ["".join(row).rstrip() for row in grid]


def main():
    cols, rows = int(sys.argv[1]), int(sys.argv[2])
    data = open(sys.argv[3], "rb").read() if len(sys.argv) > 3 else sys.stdin.buffer.read()
    for line in screen(data.decode("utf-8", "replace"), cols, rows):
        print(line)


if __name__ == "__main__":
    main()
