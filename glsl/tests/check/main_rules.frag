// main() rules.
int main(float x)
{
    return 1;
}
