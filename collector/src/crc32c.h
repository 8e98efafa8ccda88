/* CRC-32C (Castagnoli), as used by the chunk headers of the capture format. */
#ifndef NVTXC_CRC32C_H
#define NVTXC_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Selects the fastest implementation for this CPU; call once before crc32c_update. */
void crc32c_init(void);
/* Continues a CRC: start with crc = 0, feed pieces in order. */
uint32_t crc32c_update(uint32_t crc, const void *data, size_t n);

#endif
