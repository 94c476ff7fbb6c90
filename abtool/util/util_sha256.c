/* util_sha256.c - SHA-256 through OpenSSL's EVP interface (see util.h). */
#include "util.h"
#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

struct ab_sha256 {
	EVP_MD_CTX *md;
};

struct ab_sha256 *ab_sha256_new(void)
{
	struct ab_sha256 *ctx = ab_xmalloc(sizeof(*ctx));

	ctx->md = EVP_MD_CTX_new();
	if (!ctx->md || EVP_DigestInit_ex(ctx->md, EVP_sha256(), NULL) != 1)
		ab_out_of_memory();
	return ctx;
}

void ab_sha256_update(struct ab_sha256 *ctx, const void *data, size_t len)
{
	EVP_DigestUpdate(ctx->md, data, len);
}

void ab_sha256_final(struct ab_sha256 *ctx, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	EVP_DigestFinal_ex(ctx->md, md, &n);
	for (i = 0; i < n && i < 32; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	hex[64] = '\0';
	EVP_MD_CTX_free(ctx->md);
	free(ctx);
}

void ab_sha256_hex(char hex[65], const void *data, size_t len)
{
	struct ab_sha256 *ctx = ab_sha256_new();
	ab_sha256_update(ctx, data, len);
	ab_sha256_final(ctx, hex);
}

int ab_sha256_file(char hex[65], const char *path)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");
	struct ab_sha256 *ctx;

	if (!f)
		return ab_error_set(errno == ENOENT ? AB_ENOTFOUND : AB_EIO,
				    "cannot read '%s': %s", path, strerror(errno));
	ctx = ab_sha256_new();
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		ab_sha256_update(ctx, buf, n);
	ab_sha256_final(ctx, hex);
	if (ferror(f)) {
		fclose(f);
		return ab_error_set(AB_EIO, "cannot read '%s'", path);
	}
	fclose(f);
	return 0;
}
