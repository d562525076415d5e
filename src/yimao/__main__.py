from yimao.cli import main

main()
