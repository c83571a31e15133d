/*
 * The message files of a folder for --mail, listed in byte order of their
 * names: a folder of a hundred thousand bounces is given as one argument,
 * which no argument list limits, and read in the same order every time.
 * A Maildir's messages are in cur/ and new/ (tmp/ holds deliveries under
 * way); hidden files are left out, as Maildir readers leave them, and
 * subfolders are not entered.  The paths are kept until the end of the
 * run and never moved: the record writers know a file by the address of
 * its name (render_record.c file_name(), render_json.c json_file()), so
 * two files must not have the same one.
 */
#define _DEFAULT_SOURCE /* d_type: a file's type without a stat() */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "folder.h"
#include "input.h"

/* The paths' bytes, in blocks that are never moved. */
struct folder_text {
	struct folder_text *next;
	size_t used, size;
	char bytes[];
};
#define TEXT_ROOM ((size_t)64 << 10)

/* "dir/name" (dir of dlen bytes) kept in f's text: its address, or NULL
 * when there is no memory for it. */
static char *keep_path(struct folder *f, const char *dir, size_t dlen,
                       const char *name)
{
	size_t nlen = strlen(name), need = dlen + 1 + nlen + 1;
	struct folder_text *t = f->text;
	char *p;

	if (!t || t->size - t->used < need) {
		size_t size = need > TEXT_ROOM ? need : TEXT_ROOM;
		if (!(t = malloc(sizeof *t + size)))
			return NULL;
		t->next = f->text;
		t->used = 0;
		t->size = size;
		f->text = t;
	}
	p = t->bytes + t->used;
	memcpy(p, dir, dlen);
	p[dlen] = '/';
	memcpy(p + dlen + 1, name, nlen + 1);
	t->used += need;
	return p;
}

/* Room in f for one path more; false when there is no memory for it. */
static bool path_room(struct folder *f)
{
	char **more;
	size_t room;
	if (f->n < f->room)
		return true;
	room = f->room ? 2 * f->room : 1024;
	if (room > SIZE_MAX / sizeof *more ||
	    !(more = realloc(f->paths, room * sizeof *more)))
		return false;
	f->paths = more;
	f->room = room;
	return true;
}

/* Whether the entry e of the directory at fd is a regular file: its
 * d_type tells on most file systems; a link, or an entry of a file system
 * that does not tell, is asked after.  One that cannot be asked after is
 * listed, so that reading it reports why. */
static bool regular(int fd, const struct dirent *e)
{
	struct stat st;
	if (e->d_type == DT_REG)
		return true;
	if (e->d_type != DT_LNK && e->d_type != DT_UNKNOWN)
		return false;
	return fstatat(fd, e->d_name, &st, 0) != 0 || S_ISREG(st.st_mode);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add the regular files of the directory open at fd (closed here), named
 * dir (dlen bytes), to f, in byte order of their names. */
static int add_files(struct folder *f, int fd, const char *dir, size_t dlen)
{
	DIR *d = fdopendir(fd);
	const struct dirent *e;
	size_t first = f->n;
	int status = 0;

	if (!d) {
		input_error(dir, strerror(errno));
		close(fd);
		return -1;
	}
	for (errno = 0; (e = readdir(d)) != NULL; errno = 0) {
		char *path;
		if (e->d_name[0] == '.' || !regular(fd, e))
			continue;
		if (!path_room(f) ||
		    !(path = keep_path(f, dir, dlen, e->d_name))) {
			input_error(dir, strerror(ENOMEM));
			status = -1;
			break;
		}
		f->paths[f->n++] = path;
	}
	if (errno && status == 0) {
		input_error(dir, strerror(errno));
		status = -1;
	}
	closedir(d);
	/* The same folder's paths differ in their names alone.  (An empty
	 * folder may leave paths NULL, where even + 0 is undefined.) */
	if (f->n - first > 1)
		qsort(f->paths + first, f->n - first, sizeof *f->paths, by_name);
	return status;
}

/* Whether the directory at fd holds a folder name. */
static bool has_folder(int fd, const char *name)
{
	struct stat st;
	return fstatat(fd, name, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

int folder_list(struct folder *f, const char *path)
{
	static const char *const maildir[] = {"cur", "new"};
	size_t len = strlen(path);
	int fd, status = 0;

	f->n = 0;
	while (len > 0 && path[len - 1] == '/') /* DIR/ and DIR: DIR/NAME; /: /NAME */
		len--;
	if ((fd = open(path, O_RDONLY | O_DIRECTORY)) < 0) {
		input_error(path, strerror(errno));
		return -1;
	}
	if (!has_folder(fd, "cur") || !has_folder(fd, "new"))
		return add_files(f, fd, path, len);
	for (size_t i = 0; i < 2; i++) {
		const char *sub = keep_path(f, path, len, maildir[i]);
		int subfd;
		if (!sub) {
			input_error(path, strerror(ENOMEM));
			status = -1;
			break;
		}
		if ((subfd = openat(fd, maildir[i], O_RDONLY | O_DIRECTORY)) < 0) {
			input_error(sub, strerror(errno));
			status = -1;
		} else if (add_files(f, subfd, sub, strlen(sub)) != 0) {
			status = -1;
		}
	}
	close(fd);
	return status;
}

void folder_free(struct folder *f)
{
	while (f->text) {
		struct folder_text *next = f->text->next;
		free(f->text);
		f->text = next;
	}
	free(f->paths);
	f->paths = NULL;
	f->n = f->room = 0;
}
