/* backends: prints the backends the running kernel supports, one a line. */
#include <stdio.h>

#include "libcompat.h"

int main(void)
{
	const struct compat_backend *backend;

	for (size_t i = 0; (backend = compat_backend_at(i)) != NULL; i++)
		if (compat_backend_available(backend))
			puts(compat_backend_name(backend));
	return 0;
}
