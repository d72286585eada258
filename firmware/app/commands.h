/* The firmware's command table: what each opcode runs. */
#ifndef GMMU_COMMANDS_H
#define GMMU_COMMANDS_H

#include "mbox_service.h"

extern const struct mbox_command commands[];
extern const size_t command_count;

#endif
