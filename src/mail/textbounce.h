/*
 * Plain-text bounces, read by layout: each layout (data/bounces/, compiled
 * by tools/gentable into table.c) gives the phrases that recognise an
 * MTA's bounce text and find its parts, and names the shape of its
 * recipient paragraphs, which textbounce.c reads.  Internal to the
 * library.
 */
#ifndef SMTPCODE_TEXTBOUNCE_H
#define SMTPCODE_TEXTBOUNCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mime.h"
#include "phrase.h"

/* The forms of recipient paragraphs (data/README.md describes each). */
enum text_shape {
	TEXT_SHAPE_ADDRESS_PARAGRAPHS, /* "<x@y>: reply", "x@y: reply" */
	TEXT_SHAPE_INDENTED_BLOCKS,    /* "  x@y" then indented details */
	TEXT_SHAPE_LONE_ADDRESSES,     /* addresses alone, one reply */
	TEXT_SHAPE_ADDRESS_THEN_REPLY, /* an address, then "Remote Server" */
	TEXT_SHAPE_ADDRESS_MENTIONS,   /* lines naming an address */
	TEXT_SHAPE_DATED_ADDRESSES     /* "x@y on DATE", "<host #...>" */
};

struct text_layout {
	uint8_t shape;      /* enum text_shape */
	uint8_t bare;       /* address paragraphs: "x@y:", not "<x@y>:" */
	uint16_t greetings; /* intro[0, greetings) name the reporting MTA */
	uint8_t intro_of;   /* the first layout of the same intro: itself,
	                       or one whose intro it shares */
	struct phrase_set intro;       /* recognise the bounce (line start) */
	struct phrase_set list;        /* the line before the recipients */
	struct phrase_set list_within; /* the same, anywhere in that line */
	struct phrase_set reply;       /* where a recipient's reply is */
	struct phrase_set reply_line;  /* a line that holds the reply */
	struct phrase_set sentence;    /* a sentence naming an address */
	struct phrase_set end;         /* where the bounce's own text ends */
	struct phrase_set server;      /* names the reporting MTA */
};

/* Generated: the layouts in the order they are tried (priority). */
extern const struct text_layout text_layouts[];
extern const size_t text_layouts_count;
/* Generated: bit k of entry c set when an intro of layout k may start
 * with byte c (folded; intro_of itself only), so that a line's first byte
 * names the layouts it may open (TABLE_LAYOUTS_MAX is 64). */
extern const uint64_t text_layout_starts[256];
/* Generated: the same for the byte a line holds second (a line of one
 * byte: entry 0), so that "th" and "to" name fewer layouts than 't'. */
extern const uint64_t text_layout_seconds[256];

/* Where a reader puts what it finds. */
struct text_sink {
	void *ctx;
	void (*recipient)(void *ctx, struct span addr, struct span diagnostic,
	                  struct span remote_mta);
	void (*reporting_mta)(void *ctx, struct span host);
};

/* Read text with each layout in turn until one yields recipients; whether
 * any layout recognised the text (its intro). */
bool text_bounce_read(struct span text, const struct text_sink *sink);

#endif
