"""in_pty.py COLUMNS ROWS CMD [ARG...]: run CMD on a pseudo-terminal of
COLUMNS x ROWS (stdin, stdout and stderr are the terminal), copy what it
writes to our stdout, and exit with its exit code (128 + N for signal N).
For the terminal views of tests/cli/terminal_views.sh: what a person at a
terminal of that size sees, without tmux."""
import fcntl
import os
import pty
import struct
import sys
import termios

cols, rows = int(sys.argv[1]), int(sys.argv[2])
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.execvp(sys.argv[3], sys.argv[3:])
out = sys.stdout.buffer
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:  # EIO: the child closed the terminal
        break
    if not data:
        break
    out.write(data)
out.flush()
_, status = os.waitpid(pid, 0)
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
