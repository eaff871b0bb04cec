/*
 * test_list.c — kernel/lib/list.h, the intrusive circular lists.
 *
 * Proves: a head starts empty and links to itself (list_init and
 * LIST_INIT); push_back/push_front keep order in both directions; pop_front
 * returns the oldest node and NULL on an empty list; list_remove unlinks
 * from any position and leaves the node self-linked (so a second remove is
 * harmless); list_length counts; list_entry recovers the containing object;
 * list_for_each_safe survives removing the current node, and sees every
 * node exactly once.
 */
#include "check.h"
#include <list.h>

struct item {
	int value;
	struct list_node node;
	int tail;       /* something after the node, so offsetof() matters */
};

static void fill(struct list_node *head, struct item *items, int n)
{
	list_init(head);
	for (int i = 0; i < n; i++) {
		items[i].value = i;
		items[i].tail = 100 + i;
		list_push_back(head, &items[i].node);
	}
}

/* The values in list order, forward, as "0,1,2"; and check prev links agree. */
static const char *values(const struct list_node *head, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = 0;
	const struct list_node *prev = head;
	for (const struct list_node *p = head->next; p != head; p = p->next) {
		if (p->prev != prev)
			return "broken prev link";
		const struct item *it = list_entry(p, struct item, node);
		o += (size_t)snprintf(buf + o, size - o, "%s%d", o ? "," : "", it->value);
		prev = p;
	}
	if (head->prev != prev)
		return "broken head prev link";
	return buf;
}

TEST(init_is_empty)
{
	struct list_node head;
	list_init(&head);
	CHECK(list_empty(&head));
	CHECK_PTR(head.next, &head);
	CHECK_PTR(head.prev, &head);
	CHECK_EQ(list_length(&head), 0);
	CHECK_PTR(list_pop_front(&head), NULL);
	CHECK(list_empty(&head));
}

TEST(static_list_init)
{
	static struct list_node head = LIST_INIT(head);
	CHECK(list_empty(&head));
	struct item a = { .value = 7 };
	list_push_back(&head, &a.node);
	CHECK(!list_empty(&head));
	CHECK_EQ(list_length(&head), 1);
	list_remove(&a.node);
	CHECK(list_empty(&head));
}

TEST(push_back_keeps_fifo_order)
{
	struct list_node head;
	struct item items[5];
	char buf[64];
	fill(&head, items, 5);
	CHECK_EQ(list_length(&head), 5);
	CHECK_STR(values(&head, buf, sizeof buf), "0,1,2,3,4");
}

TEST(push_front_reverses)
{
	struct list_node head;
	struct item items[4];
	char buf[64];
	list_init(&head);
	for (int i = 0; i < 4; i++) {
		items[i].value = i;
		list_push_front(&head, &items[i].node);
	}
	CHECK_STR(values(&head, buf, sizeof buf), "3,2,1,0");
	CHECK_PTR(head.prev, &items[0].node);
}

TEST(pop_front_order_then_null)
{
	struct list_node head;
	struct item items[3];
	fill(&head, items, 3);
	for (int i = 0; i < 3; i++) {
		struct list_node *n = list_pop_front(&head);
		CHECK(n != NULL);
		CHECK_EQ(list_entry(n, struct item, node)->value, i);
		CHECK_PTR(n->next, n);          /* popped nodes are self-linked */
		CHECK_PTR(n->prev, n);
		CHECK_EQ(list_length(&head), 2 - i);
	}
	CHECK_PTR(list_pop_front(&head), NULL);
	CHECK(list_empty(&head));
}

TEST(remove_first_middle_last)
{
	struct list_node head;
	struct item items[5];
	char buf[64];
	fill(&head, items, 5);
	list_remove(&items[2].node);
	CHECK_STR(values(&head, buf, sizeof buf), "0,1,3,4");
	list_remove(&items[0].node);
	CHECK_STR(values(&head, buf, sizeof buf), "1,3,4");
	list_remove(&items[4].node);
	CHECK_STR(values(&head, buf, sizeof buf), "1,3");
	CHECK_EQ(list_length(&head), 2);
}

TEST(remove_twice_is_harmless)
{
	struct list_node head;
	struct item items[3];
	char buf[64];
	fill(&head, items, 3);
	list_remove(&items[1].node);
	list_remove(&items[1].node);    /* self-linked: unlinks from itself */
	CHECK_STR(values(&head, buf, sizeof buf), "0,2");
	list_push_back(&head, &items[1].node);
	CHECK_STR(values(&head, buf, sizeof buf), "0,2,1");
}

TEST(list_entry_recovers_object)
{
	struct item it = { .value = 42, .tail = 43 };
	struct item *back = list_entry(&it.node, struct item, node);
	CHECK_PTR(back, &it);
	CHECK_EQ(back->value, 42);
	CHECK_EQ(back->tail, 43);
}

TEST(for_each_visits_in_order)
{
	struct list_node head;
	struct item items[6];
	fill(&head, items, 6);
	int expect = 0;
	list_for_each(pos, &head) {
		CHECK_EQ(list_entry(pos, struct item, node)->value, expect);
		expect++;
	}
	CHECK_EQ(expect, 6);
	int count = 0;
	struct list_node empty;
	list_init(&empty);
	list_for_each(pos, &empty)
		count++;
	CHECK_EQ(count, 0);
}

TEST(for_each_safe_removes_evens)
{
	struct list_node head;
	struct item items[7];
	char buf[64];
	fill(&head, items, 7);
	int seen = 0;
	list_for_each_safe(pos, tmp, &head) {
		struct item *it = list_entry(pos, struct item, node);
		seen++;
		if (it->value % 2 == 0)
			list_remove(pos);
	}
	CHECK_EQ(seen, 7);
	CHECK_STR(values(&head, buf, sizeof buf), "1,3,5");
}

TEST(for_each_safe_drains_into_other_list)
{
	struct list_node head, other;
	struct item items[4];
	char buf[64];
	fill(&head, items, 4);
	list_init(&other);
	list_for_each_safe(pos, tmp, &head) {
		list_remove(pos);
		list_push_front(&other, pos);
	}
	CHECK(list_empty(&head));
	CHECK_EQ(list_length(&other), 4);
	CHECK_STR(values(&other, buf, sizeof buf), "3,2,1,0");
	int count = 0;
	list_for_each_safe(pos, tmp, &head)
		count++;
	CHECK_EQ(count, 0);
}
