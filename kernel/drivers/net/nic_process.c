/*
 * nic_process.c — the driver side of a network card (nic_driver.h) in a
 * driver process (paper 003); the kernel's is nic.c.
 *
 * nic_register is the paper's drvproc registration: the card's device type,
 * its entries (SEND, POLL), the interrupt handler's address and the MAC go
 * to the kernel with drvproc_register, which enters the kernel's struct nic
 * for the card.  nic_deliver hands a received frame to the kernel with
 * drvproc_rx (one call per frame), which delivers it to the card's receiver
 * and says whether it has room for another; nic_rx_room returns that
 * answer until the kernel says there is room again (EV_POLL).
 */
#include <string.h>
#include <hako/sys.h>
#include <drvenv.h>
#include <nic_driver.h>

static struct nic *card;
static bool room = true;

struct nic *nic_process_card(void) { return card; }
void nic_process_room(bool r) { room = r; }

int nic_register(struct nic *n, struct drv_dev *dev, const struct nic_ops *ops)
{
	strlcpy(n->name, drv_name(dev), sizeof n->name);
	n->dev = dev;
	n->ops = ops;
	struct hako_drvproc_reg reg = {
		.type = HAKO_DRVPROC_NET,
		.nentries = 2,
		.entries = { HAKO_DRVPROC_NET_SEND, HAKO_DRVPROC_NET_POLL },
		.irq_handler = (uint64_t)(uintptr_t)ops->ack,
		.link_up = n->link_up,
	};
	memcpy(reg.mac, n->mac, ETH_ALEN);
	long r = sys_drvproc_register(&reg);
	if (r < 0)
		return (int)r;
	card = n;
	return 0;
}

void nic_deliver(struct nic *n, const uint8_t *frame, size_t len)
{
	long r = sys_drvproc_rx(frame, len);
	room = r == 1;
}

bool nic_rx_room(struct nic *n) { return room; }

size_t nic_copy_padded(void *dst, const void *frame, size_t len)
{
	memcpy(dst, frame, len);
	if (len < ETH_FRAME_MIN) {
		memset((uint8_t *)dst + len, 0, ETH_FRAME_MIN - len);
		len = ETH_FRAME_MIN;
	}
	return len;
}
