/* main.c - placeholder until the command table lands */
#include <stdio.h>
int main(void)
{
	puts("abtool " ABTOOL_VERSION);
	return 0;
}
