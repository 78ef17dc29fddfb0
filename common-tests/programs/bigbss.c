/*
 * bigbss: a static program with 256 MiB of .bss that it never touches;
 * exits 0. Its exec maps the .bss after the point of no return, when the
 * old image is gone: under an RLIMIT_AS smaller than the .bss that mapping
 * fails and the exec ends in a SIGSEGV instead of an error.
 */
char bss[256 << 20];

int main(void)
{
	return bss[0];
}
