/*
 * list.h — intrusive circular doubly-linked lists.
 *
 * A struct list_node sits inside the object; list_entry() gets back from
 * the node to the object.  A list head is a node that links to itself
 * when empty.  No locking here: the owner of the list holds its lock.
 */
#ifndef HAKO_LIST_H
#define HAKO_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_node {
	struct list_node *next, *prev;
};

#define LIST_INIT(name) { &(name), &(name) }
#define list_entry(node, type, member) \
	((type *)((char *)(node) - offsetof(type, member)))

static inline void list_init(struct list_node *h) { h->next = h->prev = h; }
static inline bool list_empty(const struct list_node *h) { return h->next == h; }

static inline void list_insert_between(struct list_node *n, struct list_node *prev, struct list_node *next)
{
	n->prev = prev;
	n->next = next;
	prev->next = n;
	next->prev = n;
}

static inline void list_push_back(struct list_node *h, struct list_node *n) { list_insert_between(n, h->prev, h); }
static inline void list_push_front(struct list_node *h, struct list_node *n) { list_insert_between(n, h, h->next); }

static inline void list_remove(struct list_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n->prev = n;
}

static inline struct list_node *list_pop_front(struct list_node *h)
{
	struct list_node *n = h->next;
	if (n == h)
		return NULL;
	list_remove(n);
	return n;
}

static inline size_t list_length(const struct list_node *h)
{
	size_t n = 0;
	for (const struct list_node *p = h->next; p != h; p = p->next)
		n++;
	return n;
}

#define list_for_each(pos, head) \
	for (struct list_node *pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_safe(pos, tmp, head) \
	for (struct list_node *pos = (head)->next, *tmp = pos->next; pos != (head); pos = tmp, tmp = pos->next)

#endif
