/* util_file.c - whole files and folders (see util.h). */
#include "util.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ab_read_file(char **out, size_t *len, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, alloc = 0, r;

	*out = NULL;
	if (!f)
		return ab_error_set(errno == ENOENT ? AB_ENOTFOUND : AB_EIO,
				    "cannot read '%s': %s", path, strerror(errno));
	for (;;) {
		AB_GROW(buf, alloc, n + 65536);
		r = fread(buf + n, 1, alloc - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		free(buf);
		return ab_error_set(AB_EIO, "cannot read '%s': %s", path, strerror(e));
	}
	fclose(f);
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int ab_write_file(const char *path, const void *data, size_t len)
{
	char *tmp = ab_xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	const char *p = data;
	int err = 0;

	if (fd < 0) {
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
		goto out_free;
	}
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
			goto out_close;
		}
		p += w;
		len -= (size_t)w;
	}
	if (fsync(fd) < 0)
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
out_close:
	if (close(fd) < 0 && !err)
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
	if (!err && rename(tmp, path) < 0)
		err = ab_error_set(AB_EIO, "cannot write '%s': %s", path, strerror(errno));
	if (err)
		unlink(tmp);
out_free:
	free(tmp);
	return err;
}

int ab_mkdir_p(const char *path)
{
	return ab_mkdir_p_mode(path, 0777);
}

int ab_mkdir_p_mode(const char *path, unsigned mode)
{
	char *p = ab_xstrdup(path), *s;
	int err = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
				err = ab_error_set(AB_EIO, "cannot create directory '%s': %s",
						   p, strerror(errno));
				break;
			}
			*s = c;
			if (c == '\0')
				break;
		}
	}
	free(p);
	return err;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int ab_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : ab_error_set(AB_EIO, "cannot remove '%s': %s",
							  path, strerror(errno));
	if (nftw(path, remove_entry, 32, FTW_DEPTH | FTW_PHYS) < 0)
		return ab_error_set(AB_EIO, "cannot remove '%s': %s", path, strerror(errno));
	return 0;
}
